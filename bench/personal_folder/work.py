"""Documents/Work/: invoices and meeting notes (series), payslips (series) and a report in versions."""

from __future__ import annotations

from .documents import MONTHS
from .person import Person
from .plan import Plan


def invoices(plan: Plan, p: Person) -> None:
    paths = []
    for i in range(1, plan.n(10, 3) + 1):
        client = p.clients[i % len(p.clients)]
        hours = plan.rng.randint(6, 40)
        path = f"Documents/Work/invoices/invoice-2024-{i:03d}.pdf"
        paths.append(path)
        plan.add(
            path,
            "pdf",
            (
                f"INVOICE 2024-{i:03d}\n\nFrom: {p.name}, freelance {p.role}, {p.address}\nTo: {client}\n"
                f"Date: {i + 2} {MONTHS[i % 12]} 2024\n\nDescription: consulting, {hours} hours at "
                "65.00 EUR\n"
                f"Subtotal: {hours * 65:.2f} EUR\nVAT 21 percent: {hours * 65 * 0.21:.2f} EUR\n"
                f"Total: {hours * 65 * 1.21:.2f} EUR\n\nPayment within 30 days to {p.bank}. Thank "
                "you for your business."
            ),
            plan.day(2024, i % 12 + 1, min(28, i + 2)),
        )
    plan.series.append(tuple(paths))
    plan.mean(("bill I sent a customer for my side gig",), *paths)


def meetings(plan: Plan, p: Person) -> None:
    paths = []
    for i, (subject, points, decision, phrases) in enumerate(p.meetings[: plan.n(12, 4)]):
        month, day = 1 + i % 11, 3 + (i * 7) % 24
        path = f"Documents/Work/meetings/2024-{month:02d}-{day:02d}-{_slug(subject)}.md"
        paths.append(path)
        who = ", ".join(p.colleagues[(i + k) % len(p.colleagues)] for k in range(3))
        owner = p.colleagues[i % len(p.colleagues)].split()[0]
        body = "\n".join(f"- {point[0].upper()}{point[1:]}: {_remark(plan, point)}" for point in points)
        plan.add(
            path,
            "md",
            (
                f"# Meeting notes: {subject}\n\nDate: {day} {MONTHS[month - 1]} 2024\nTeam: "
                f"{p.team}, {p.employer}\n"
                f"Attendees: {p.name}, {who}\n\n## Discussion\n{body}\n\n## Decisions\n- Agreed: "
                f"{decision}.\n\n"
                f"## Actions\n- {owner} writes up the outcome and shares it before the next meeting.\n"
            ),
            plan.day(2024, month, day),
        )
        plan.mean(phrases, path)
    plan.series.append(tuple(paths))


def _remark(plan: Plan, point: str) -> str:
    return plan.rng.choice(
        (
            f"we went through {point} in detail and most people felt it needs another look.",
            f"{point} came up again; there is no consensus yet and the risks were listed.",
            f"the group reviewed {point} and several concerns were raised about timing.",
            f"a short update on {point}, with questions from everyone present.",
        )
    )


def _slug(text: str) -> str:
    return "-".join("".join(c for c in w.lower() if c.isalnum()) for w in text.split())


def payslips(plan: Plan, p: Person) -> None:
    paths = []
    gross = 3600 + p.house * 3
    for m in range(1, plan.n(8, 2) + 1):
        path = f"Documents/Work/payslips/payslip-2024-{m:02d}.pdf"
        paths.append(path)
        bonus = 400 if m == 6 else 0
        tax = round((gross + bonus) * 0.24)
        plan.add(
            path,
            "pdf",
            (
                f"{p.employer}\n\nPayslip for {MONTHS[m - 1]} 2024\nEmployee: {p.name}, {p.role}\n"
                f"Gross pay: {gross + bonus:.2f} EUR\nIncome tax: -{tax:.2f}\nSocial security: "
                f"-{gross * 0.07:.2f}\n"
                f"Pension contribution: -{gross * 0.05:.2f}\nNet pay: "
                f"{gross + bonus - tax - gross * 0.12:.2f} EUR\n\n"
                f"Paid to your account at {p.bank} on the 25th."
            ),
            plan.day(2024, m, 25),
        )
    plan.series.append(tuple(paths))
    plan.mean(("what my employer deposited this period, with deductions",), *paths)


def report(plan: Plan, p: Person) -> None:
    """The Q3 report as draft, v2, v2 final, and a '(1)' copy of the final saved twice."""
    base = "Documents/Work/reports/Q3 report"
    texts = _report_texts(p)
    names = (f"{base} draft.docx", f"{base} v2.docx", f"{base} v2 final.docx")
    when = plan.day(2024, 10, 4)
    for name, text in zip(names, texts, strict=True):
        plan.add(name, "docx", text, when, doc="q3-report")
        when = plan.later(when, 2, 6)
    plan.versions.append((names, names[-1]))
    plan.copy(names[-1], f"{base} v2 final (1).docx", plan.later(when, 0, 1))
    plan.mean(("how the business performed from July to September",), "q3-report")


def _report_texts(p: Person) -> tuple[str, str, str]:
    head = f"Q3 2024 report: {p.team}, {p.employer}"
    summary = (
        f"The {p.team} team closed the third quarter ahead of plan. Revenue attributed to our work grew "
        "by {g} percent against the second quarter, driven by two large accounts and a better renewal rate."
    )
    risks = (
        "Risks: hiring is behind by one position, and a supplier contract ends in December. Both are "
        "tracked in the planning sheet."
    )
    outlook = (
        "Outlook: we expect a flat fourth quarter because of seasonal demand, and will use the quiet "
        "weeks to pay down technical debt and document our processes."
    )
    draft = "\n\n".join((head, summary.format(g=7), risks))
    v2 = "\n\n".join((head, summary.format(g=9), risks, outlook))
    final = "\n\n".join(
        (
            head,
            summary.format(g=9),
            risks.replace("one position", "two positions"),
            outlook,
            f"Prepared by {p.name}, {p.role}. Reviewed by {p.colleagues[0]}.",
        )
    )
    return draft, v2, final
