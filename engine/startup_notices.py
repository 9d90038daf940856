"""What start-up did on the person's behalf, in sentences: recoveries, repairs, a settings file or a store
kept aside. The page shows them as toasts at start, `sensetree` prints them on the terminal."""

from __future__ import annotations

from engine.parts import Parts

PURGE_NOTICE_FILES = 5  # a start-up purge of more files than this is announced


def startup_notices(parts: Parts) -> list[str]:
    notes = parts.notes
    notices = [notes.load_warning] if notes.load_warning else []
    notices.extend(notes.notices)
    notices += parts.keywords.notices  # a damaged keyword index set aside and rebuilt
    for item in parts.recovery_report:
        notices.append(
            "An action plan was interrupted last time "
            f"({item.get('summary') or item['transaction_id']}): "
            f"{item.get('message') or 'it was rolled back.'}"
        )
    notices.extend(parts.txn.startup_notices(parts.recovery_report))
    report = parts.repair_report
    if len(report.outside_roots) > PURGE_NOTICE_FILES:
        notices.append(
            f"{len(report.outside_roots)} file(s) outside the indexed folders were removed from the "
            f"index (for example {report.outside_roots[0]})."
        )
    if notes.db_rebuilt or notes.vectors_kept_aside:
        pass  # the store's notice says what happened; the repair figures would only repeat it
    elif report.requeued or report.orphans_dropped or report.keywords_refilled or report.reembedding:
        notices.append(
            f"The index was repaired after an unclean shutdown: {len(report.requeued)} file(s) "
            f"re-queued, {len(report.reembedding)} embedded again from their indexed text, "
            f"{len(report.keywords_refilled)} keyword entries rebuilt, "
            f"{len(report.orphans_dropped)} stale entries removed."
        )
    return notices
