; Inno Setup script: a per-user installer for the PyInstaller onedir bundle (build\dist\sensetree).
; Why per-user: no administrator prompt, and the data dir, autostart Run key and uninstall entry all
; live under the same user. Installs to %LOCALAPPDATA%\Programs\SenseTree, adds a Start-menu entry
; (and an optional desktop icon), registers an uninstaller, and removes the autostart Run value on
; uninstall. The person's data (%LOCALAPPDATA%\SenseTree) is left alone.
; The window is pywebview's EdgeChromium back-end, which needs the Microsoft Edge WebView2 runtime
; (present on Windows 11 and updated Windows 10). When the runtime is absent, the installer runs
; Microsoft's evergreen bootstrapper (build\windows\MicrosoftEdgeWebview2Setup.exe, fetched by the
; release workflow from https://go.microsoft.com/fwlink/p/?LinkId=2124703), which installs the
; current runtime; without the bootstrapper file the build fails rather than ship a window that
; cannot open.
; Build (after PyInstaller, from the repository root):
;   iscc /DAppVersion=0.1.0 build\windows\sensetree.iss     -> build\dist\SenseTree-Setup-0.1.0.exe

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6B0E3B52-5C1E-4D8B-9E55-2F3A2A7C5E11}
AppName=SenseTree
AppVersion={#AppVersion}
AppPublisher=SenseTree
DefaultDirName={localappdata}\Programs\SenseTree
DefaultGroupName=SenseTree
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\dist
OutputBaseFilename=SenseTree-Setup-{#AppVersion}
SetupIconFile=..\icons\sensetree.ico
UninstallDisplayIcon={app}\sensetree.exe
Compression=lzma2/normal
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\dist\sensetree\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "MicrosoftEdgeWebview2Setup.exe"; DestDir: "{tmp}"; Flags: deleteafterinstall; Check: NeedsWebView2

[Icons]
Name: "{group}\SenseTree"; Filename: "{app}\sensetree.exe"
Name: "{group}\Uninstall SenseTree"; Filename: "{uninstallexe}"
Name: "{userdesktop}\SenseTree"; Filename: "{app}\sensetree.exe"; Tasks: desktopicon

[Run]
Filename: "{tmp}\MicrosoftEdgeWebview2Setup.exe"; Parameters: "/silent /install"; StatusMsg: "Installing the Microsoft Edge WebView2 runtime..."; Check: NeedsWebView2; Flags: waituntilterminated
Filename: "{app}\sensetree.exe"; Description: "{cm:LaunchProgram,SenseTree}"; Flags: nowait postinstall skipifsilent

[Registry]
; engine/autostart.py writes this value when the person turns on "Start at login"; remove it with the app.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: none; ValueName: "SenseTree"; Flags: uninsdeletevalue dontcreatekey

[Code]
// The WebView2 runtime registers its version (pv) under EdgeUpdate\Clients\{F3017226-...}, per machine
// (32- or 64-bit view) or per user; a missing value or 0.0.0.0 means it is not installed. This is the
// check Microsoft documents for installers ("Detect if a WebView2 Runtime is already installed").
const
  WebView2Key = 'Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}';

function HasVersion(Root: Integer; SubKey: String): Boolean;
var
  Version: String;
begin
  Result := RegQueryStringValue(Root, SubKey, 'pv', Version) and (Version <> '') and (Version <> '0.0.0.0');
end;

function NeedsWebView2: Boolean;
begin
  Result := not (HasVersion(HKLM, 'SOFTWARE\WOW6432Node\' + WebView2Key)
                 or HasVersion(HKLM, 'SOFTWARE\' + WebView2Key)
                 or HasVersion(HKCU, 'Software\' + WebView2Key));
end;
