"""A minimal StatusNotifier host for the tray tests: what a KDE/GNOME(AppIndicator)/XFCE panel does on D-Bus.

Why it exists: Debian has no headless tray host (no snixembed, stalonetray or xembedsniproxy), and Xvfb
has no panel, so without this the tray could only be tested as "it did not crash". It speaks the real
protocols: it owns `org.kde.StatusNotifierWatcher` (items register with it, and it says a host is
there), reads an item's menu over `com.canonical.dbusmenu` (`GetLayout`), clicks menu entries
(`Event(id, "clicked")`), left-clicks the icon (`org.kde.StatusNotifierItem.Activate`), and owns
`org.freedesktop.Notifications` to record the balloon messages an item shows.

Run with the system Python (it needs PyGObject's Gio): `python3 sni_host.py`, on a session bus the test
started. It reads one JSON command per line on stdin and answers one JSON line on stdout:
`{"cmd": "wait_item"}`, `{"cmd": "menu"}`, `{"cmd": "click", "label": "Quit"}`, `{"cmd": "activate"}`,
`{"cmd": "notifications"}`. It prints `{"ready": true}` once it owns its names.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

WATCHER = "org.kde.StatusNotifierWatcher"
ITEM = "org.kde.StatusNotifierItem"
NOTIFICATIONS = "org.freedesktop.Notifications"
BOUND_S = 30

WATCHER_XML = """
<node><interface name="org.kde.StatusNotifierWatcher">
  <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  <signal name="StatusNotifierItemUnregistered"><arg type="s"/></signal>
  <signal name="StatusNotifierHostRegistered"/>
</interface></node>"""

NOTIFICATIONS_XML = """
<node><interface name="org.freedesktop.Notifications">
  <method name="Notify">
    <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
    <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
    <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
  </method>
  <method name="GetCapabilities"><arg type="as" direction="out"/></method>
  <method name="CloseNotification"><arg type="u" direction="in"/></method>
  <method name="GetServerInformation">
    <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    <arg type="s" direction="out"/>
  </method>
</interface></node>"""


class Host:
    def __init__(self, bus: Gio.DBusConnection) -> None:
        self.bus = bus
        self.items: list[tuple[str, str]] = []  # (bus name, object path)
        self.notes: list[dict[str, str]] = []

    def on_watcher_call(
        self,
        _conn: Any,
        sender: str,
        _path: str,
        _iface: str,
        method: str,
        params: GLib.Variant,
        invocation: Gio.DBusMethodInvocation,
    ) -> None:
        if method == "RegisterStatusNotifierItem":
            (service,) = params.unpack()
            item = (sender, service) if service.startswith("/") else (service, "/StatusNotifierItem")
            self.items.append(item)
            invocation.return_value(None)
            self.bus.emit_signal(
                None,
                "/StatusNotifierWatcher",
                WATCHER,
                "StatusNotifierItemRegistered",
                GLib.Variant("(s)", (item[0] + item[1],)),
            )
        else:
            invocation.return_value(None)

    def on_watcher_property(
        self, _conn: Any, _sender: str, _path: str, _iface: str, name: str
    ) -> GLib.Variant:
        if name == "RegisteredStatusNotifierItems":
            return GLib.Variant("as", [name + path for name, path in self.items])
        if name == "IsStatusNotifierHostRegistered":
            return GLib.Variant("b", True)
        return GLib.Variant("i", 0)

    def on_notifications_call(
        self,
        _conn: Any,
        _sender: str,
        _path: str,
        _iface: str,
        method: str,
        params: GLib.Variant,
        invocation: Gio.DBusMethodInvocation,
    ) -> None:
        if method == "Notify":
            app, _replaces, _icon, summary, body, *_ = params.unpack()
            self.notes.append({"app": app, "summary": summary, "body": body})
            invocation.return_value(GLib.Variant("(u)", (len(self.notes),)))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["body"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("sni_host", "tests", "1", "1.2")))
        else:
            invocation.return_value(None)

    # ---- what the test asks for ----------------------------------------------------------------------
    def item(self) -> tuple[str, str]:
        deadline = time.monotonic() + BOUND_S
        context = GLib.MainContext.default()
        while not self.items and time.monotonic() < deadline:
            context.iteration(True)
        if not self.items:
            raise TimeoutError("no StatusNotifierItem registered")
        return self.items[-1]

    def _call(
        self, name: str, path: str, iface: str, method: str, args: GLib.Variant | None, reply: str | None
    ) -> Any:
        """A call that keeps serving this host's own names while it waits: the item may ask the watcher
        something (is a host registered?) before it answers, and a blocking call would deadlock."""
        box: dict[str, Any] = {}
        self.bus.call(
            name,
            path,
            iface,
            method,
            args,
            GLib.VariantType(reply) if reply else None,
            Gio.DBusCallFlags.NONE,
            BOUND_S * 1000,
            None,
            lambda conn, result: box.setdefault("result", result),
        )
        context = GLib.MainContext.default()
        while "result" not in box:
            context.iteration(True)
        value = self.bus.call_finish(box["result"])
        return value.unpack() if value is not None else None

    def _item_property(self, prop: str) -> Any:
        name, path = self.item()
        (value,) = self._call(
            name, path, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (ITEM, prop)), "(v)"
        )
        return value

    def menu(self) -> list[dict[str, Any]]:
        name, _ = self.item()
        menu_path = self._item_property("Menu")
        self._call(name, menu_path, "com.canonical.dbusmenu", "AboutToShow", GLib.Variant("(i)", (0,)), "(b)")
        _revision, (_id, _props, children) = self._call(
            name,
            menu_path,
            "com.canonical.dbusmenu",
            "GetLayout",
            GLib.Variant("(iias)", (0, -1, [])),
            "(u(ia{sv}av))",
        )
        entries = []
        for child_id, props, _grand in children:
            if props.get("type") == "separator":
                continue
            entries.append(
                {
                    "id": child_id,
                    "label": props.get("label", "").replace("&", ""),
                    "toggle_type": props.get("toggle-type", ""),
                    "toggle_state": props.get("toggle-state", -1),
                    "visible": props.get("visible", True),
                    "enabled": props.get("enabled", True),
                }
            )
        return entries

    def click(self, label: str) -> dict[str, Any]:
        name, _ = self.item()
        menu_path = self._item_property("Menu")
        entry = next(e for e in self.menu() if e["label"] == label)
        self._call(
            name,
            menu_path,
            "com.canonical.dbusmenu",
            "Event",
            GLib.Variant("(isvu)", (entry["id"], "clicked", GLib.Variant("i", 0), 0)),
            None,
        )
        return entry

    def activate(self) -> None:
        name, path = self.item()
        self._call(name, path, ITEM, "Activate", GLib.Variant("(ii)", (0, 0)), None)

    def status(self) -> dict[str, Any]:
        return {
            "title": self._item_property("Title"),
            "status": self._item_property("Status"),
            "id": self._item_property("Id"),
        }


def main() -> int:
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    host = Host(bus)
    watcher = Gio.DBusNodeInfo.new_for_xml(WATCHER_XML).interfaces[0]
    bus.register_object(
        "/StatusNotifierWatcher", watcher, host.on_watcher_call, host.on_watcher_property, None
    )
    notes = Gio.DBusNodeInfo.new_for_xml(NOTIFICATIONS_XML).interfaces[0]
    bus.register_object("/org/freedesktop/Notifications", notes, host.on_notifications_call, None, None)
    for name in (WATCHER, NOTIFICATIONS):
        (reply,) = host._call(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "RequestName",
            GLib.Variant("(su)", (name, 4)),
            "(u)",
        )
        if reply != 1:
            raise RuntimeError(f"could not own {name} (reply {reply})")
    print(json.dumps({"ready": True}), flush=True)
    commands = {
        "wait_item": lambda _c: {"item": "".join(host.item())},
        "menu": lambda _c: {"menu": host.menu()},
        "click": lambda c: {"clicked": host.click(c["label"])},
        "activate": lambda _c: host.activate() or {},
        "notifications": lambda _c: {"notifications": host.notes},
        "status": lambda _c: host.status(),
    }
    stdin = GLib.IOChannel.unix_new(sys.stdin.fileno())

    def on_line(channel: GLib.IOChannel, condition: int) -> bool:
        if condition & GLib.IO_HUP:
            loop.quit()
            return False
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        command = json.loads(line)
        try:
            answer = commands[command["cmd"]](command)
        except Exception as exc:  # noqa: BLE001 - reported to the test, which shows it
            answer = {"error": repr(exc)}
        print(json.dumps(answer), flush=True)
        return True

    GLib.io_add_watch(stdin, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_line)
    loop = GLib.MainLoop()
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
