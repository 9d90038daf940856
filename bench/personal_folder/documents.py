"""Documents/: housing, taxes, health, finance and the car, as one person's papers read.

Series (rent receipts, electricity bills, bank statements, transaction exports) are one template
filled with different months and amounts, exactly what a careless duplicate finder mistakes for
copies. Each function registers its paraphrases with `plan.mean`; the build checks them.
"""

from __future__ import annotations

import calendar

from .person import Person
from .plan import Plan

MONTHS = tuple(calendar.month_name[1:])


def housing(plan: Plan, p: Person) -> None:
    lease = "Documents/Housing/lease-agreement-2023.docx"
    plan.add(lease, "docx", _lease(p), plan.day(2023, 8, 14))
    plan.mean(("contract for the flat I live in", "apartment occupancy contract"), lease)
    renewal = "Documents/Housing/lease-renewal-letter.txt"
    plan.add(renewal, "txt", _renewal(p), plan.day(2024, 6, 20))
    plan.mean(("offer to stay another year at a higher cost", "extending my stay in the flat"), renewal)
    receipts = []
    for m in range(1, plan.n(11, 4) + 1):
        path = f"Documents/Housing/rent-receipt-2024-{m:02d}.pdf"
        receipts.append(path)
        plan.add(path, "pdf", rent_receipt(p, m), plan.day(2024, m, 2))
    plan.series.append(tuple(receipts))
    plan.mean(("proof I paid for my accommodation", "evidence of housing charges settled"), *receipts)
    bills = []
    for m in range(1, plan.n(10, 3) + 1):
        path = f"Documents/Housing/electricity-bill-2024-{m:02d}.pdf"
        bills.append(path)
        plan.add(path, "pdf", _bill(p, m, plan.rng.randint(140, 420)), plan.day(2024, m, 9))
    plan.series.append(tuple(bills))
    plan.mean(("what I owe for power at home", "energy costs at the flat"), *bills)


def _lease(p: Person) -> str:
    return (
        f"Residential Lease Agreement\n\nThis agreement is made on 14 August 2023 between {p.landlord} "
        f"(the Landlord) and {p.name} (the Tenant) for the premises at {p.address}, {p.country}. The tenancy "
        "runs for twelve months from 1 September 2023 and continues afterwards unless either party gives two "
        f"months' written notice.\n\nThe rent is {p.rent} euros, payable in advance on the first day of "
        f"each period by bank transfer. A deposit of {2 * p.rent} euros is held in a protected scheme and "
        "returned within thirty days of the end of the tenancy, less any agreed deductions for damage beyond "
        "fair wear and tear.\n\nThe Tenant agrees to keep the premises clean, to report repairs promptly, "
        "not to sublet any room without written consent, and to allow the Landlord access for inspections "
        f"with twenty-four hours' notice. One {p.species} named {p.pet} is permitted at the premises.\n\n"
        "The Landlord is responsible for the structure, the roof, the boiler and the plumbing, and for the "
        "annual gas safety check. Utilities and council charges are paid by the Tenant.\n\n"
        f"Signed: {p.name}, Tenant. Signed: for {p.landlord}, Landlord."
    )


def _renewal(p: Person) -> str:
    raised = round(p.rent * 1.035)
    return (
        f"{p.landlord}\n\nDear {p.first},\n\nRe: your tenancy at {p.address}\n\nYour current term ends on "
        "31 August 2024. We are pleased to propose a renewal for a further twelve months on the same terms, "
        f"except that the rent will rise by 3.5 percent, from {p.rent} to {raised} euros, in line with local "
        "market rates and increased maintenance charges.\n\nIf you wish to renew, please sign the enclosed "
        "form and return it by 31 July. If we do not hear from you we will assume you intend to leave at the "
        "end of the term and will arrange a check-out inspection.\n\nKind regards,\nTenancy team, "
        f"{p.landlord}"
    )


def rent_receipt(p: Person, month: int) -> str:
    return (
        f"RENT RECEIPT\n\nReceipt no. R-2024-{month:03d}\nDate: 2 {MONTHS[month - 1]} 2024\n"
        f"Received from: {p.name}\nProperty: {p.address}\nPeriod: {MONTHS[month - 1]} 2024\n"
        f"Amount: {p.rent}.00 EUR\nPayment method: bank transfer\n\nReceived with thanks by {p.landlord} "
        "on behalf of the owner. Please keep this receipt for your records."
    )


def _bill(p: Person, month: int, kwh: int) -> str:
    total = round(kwh * 0.28 + 9.5, 2)
    return (
        f"{p.utility}\n\nElectricity bill for {MONTHS[month - 1]} 2024\nCustomer: {p.name}\n"
        f"Supply address: {p.address}\nMeter reading: {4100 + month * 250 + kwh} (actual)\n"
        f"Units used: {kwh} kWh at 0.28 per kWh\nStanding charge: 9.50\nTotal due: {total:.2f} EUR\n\n"
        "This amount will be collected by direct debit on the 20th. Tip: switching appliances off standby "
        "can cut consumption by up to ten percent."
    )


def taxes(plan: Plan, p: Person) -> None:
    ret = "Documents/Taxes/tax-return-2023.pdf"
    plan.add(ret, "pdf", _tax_return(p), plan.day(2024, 4, 28))
    plan.mean(
        ("yearly declaration of earnings to the revenue office", "annual filing with the government"), ret
    )
    charity = plan.rng.choice(("Red Cross", "Oxfam", "the local hospice", "a food bank"))
    gift = "Documents/Taxes/donation-receipt.txt"
    plan.add(
        gift,
        "txt",
        f"Donation receipt\n\nThank you, {p.name}, for your gift of 250 euros to {charity} on "
        "12 December 2023. Your generosity funds emergency relief and community programmes. This "
        "receipt confirms a charitable contribution eligible for relief on your 2023 return. No goods "
        "or services were provided in exchange.",
        plan.day(2023, 12, 12),
    )
    plan.mean(("giving money to a good cause",), gift)
    laptop = "Documents/Taxes/laptop-receipt.pdf"
    plan.add(
        laptop,
        "pdf",
        f"Sales receipt\n\nElectroWorld {p.city}\nItem: 14-inch laptop, 16 GB RAM, 512 GB "
        f"SSD\nPrice: 1,149.00 EUR including VAT\nCustomer: {p.name}\nPurpose noted by customer: used "
        "for work, claimed as professional equipment.\nWarranty: two years, keep this slip.",
        plan.day(2023, 3, 18),
    )
    plan.mean(("computer bought for my job",), laptop)


def _tax_return(p: Person) -> str:
    gross = 38000 + p.house * 97
    return (
        f"Income tax return 2023\n\nTaxpayer: {p.name}\nAddress: {p.address}\nEmployer: {p.employer} "
        f"({p.role})\n\nGross salary: {gross} EUR\nTax withheld by employer: {round(gross * 0.27)} EUR\n\n"
        "Deductions claimed: charitable donations 250 EUR, work equipment (laptop) 1,149 EUR, home office "
        "allowance 600 EUR, professional association fees 120 EUR.\n\nTaxable income after deductions: "
        f"{gross - 2119} EUR. Calculated tax due: {round((gross - 2119) * 0.255)} EUR. Refund expected: "
        f"{round(gross * 0.27 - (gross - 2119) * 0.255)} EUR, to be paid into the account on file.\n\n"
        "I declare that the information given on this return is correct and complete to the best of my "
        f"knowledge. Submitted electronically on 28 April 2024 by {p.name}."
    )


def health(plan: Plan, p: Person) -> None:
    vet = f"Documents/Health/vet-record-{p.pet.lower()}.pdf"
    plan.add(vet, "pdf", _vet(p), plan.day(2024, 2, 16))
    plan.mean(("animal doctor visit", "checkup for my furry companion"), vet)
    jab = "Documents/Health/vaccination-record.pdf"
    plan.add(jab, "pdf", _vaccines(p), plan.day(2024, 1, 22))
    plan.mean(("immunisation jabs history", "shots I received against illness"), jab)
    scripts = []
    for i, (drug, form, how, why) in enumerate(p.medicines[: plan.n(2, 1)], 1):
        path = f"Documents/Health/prescription-{drug}.txt"
        scripts.append(path)
        plan.add(
            path,
            "txt",
            f"Prescription\n\nPatient: {p.name}\nPrescriber: {p.doctor}, {p.city} Family "
            f"Practice\nMedicine: {drug} {form}\nDirections: take {how}\nReason: {why}\nRepeats: {i}\n\n"
            "Take with water. Do not exceed the stated dose. Tell the pharmacist about any other "
            "medicines or supplements, and stop and seek advice if you get a rash or swelling.",
            plan.day(2024, 3 + 4 * i, 5),
        )
    plan.mean(("pills the GP ordered for me",), *scripts)


def _vet(p: Person) -> str:
    return (
        f"{p.vet} Veterinary Practice\n\nPatient record\nName: {p.pet}\nSpecies: {p.species} ({p.breed})\n"
        f"Owner: {p.name}, {p.address}\n\nConsultation on 16 February 2024: annual examination. Weight "
        "stable at 4.6 kg, heart and lungs normal, teeth show mild tartar on the upper molars. Booster "
        "immunisations given against the usual infections. Flea and worming treatment applied.\n\n"
        f"Advice: dental diet, brush teeth twice a week if {p.pet} tolerates it. Next examination due in "
        "February 2025. Microchip checked and readable. Invoice settled at reception: 86.40 EUR."
    )


def _vaccines(p: Person) -> str:
    trip = p.trips[0][1]
    return (
        f"Vaccination record\n\nName: {p.name}\nIssued by: {p.doctor}, {p.city} Family Practice\n\n"
        "Tetanus, diphtheria and polio: booster given 22 January 2024, next due 2034.\n"
        "Influenza: seasonal dose, 10 October 2023.\nHepatitis A: first dose 22 January 2024, "
        "second dose due "
        f"in July, recommended before travelling to {trip}.\nTyphoid: oral course completed January 2024.\n\n"
        "Bring this card to every appointment. Mild soreness at the injection site for a day or two is "
        "common and harmless."
    )


def finance(plan: Plan, p: Person) -> None:
    statements = []
    balance = 1800 + p.house * 11
    for m in range(1, plan.n(12, 3) + 1):
        path = f"Documents/Finance/statements/statement-2024-{m:02d}.pdf"
        statements.append(path)
        text, balance = _statement(plan, p, m, balance)
        plan.add(path, "pdf", text, plan.day(2024, m, 28))
    plan.series.append(tuple(statements))
    plan.mean(("record of cash coming in and going out of my checking",), *statements)
    exports = []
    for m in range(1, plan.n(8, 2) + 1):
        path = f"Documents/Finance/exports/transactions-2024-{m:02d}.csv"
        exports.append(path)
        rows = ["date,description,category,amount"]
        for d in sorted(plan.rng.sample(range(1, 28), 9)):
            what, cat = plan.rng.choice(
                (
                    ("Supermarket", "groceries"),
                    ("Cafe", "eating out"),
                    ("Pharmacy", "health"),
                    ("Train ticket", "transport"),
                    ("Bookshop", "leisure"),
                )
            )
            rows.append(
                f"2024-{m:02d}-{d:02d},{what},{cat},-{plan.rng.randint(3, 140)}.{plan.rng.randint(0, 99):02d}"
            )
        plan.add(path, "csv", "\n".join(rows) + "\n", plan.day(2024, m, 28))
    plan.series.append(tuple(exports))
    offer = f"Documents/Finance/mortgage-offer-{p.bank.split()[0].lower()}.pdf"
    plan.add(offer, "pdf", _mortgage(p), plan.day(2024, 9, 3))
    plan.mean(("loan to buy a house", "borrowing to become a homeowner"), offer)


def _statement(plan: Plan, p: Person, m: int, opening: int) -> tuple[str, int]:
    lines = [
        f"{p.bank}\n\nAccount statement, {MONTHS[m - 1]} 2024\nAccount holder: {p.name}\n"
        f"Opening balance: {opening:.2f} EUR\n"
    ]
    moves = [
        (f"Salary {p.employer}", 2900 + p.house),
        (f"Rent {p.landlord}", -p.rent),
        (f"{p.utility} direct debit", -plan.rng.randint(45, 120)),
        ("Supermarket card payment", -plan.rng.randint(180, 420)),
        ("Cash withdrawal", -plan.rng.randint(40, 200)),
    ]
    balance = opening
    for what, amount in moves:
        balance += amount
        lines.append(f"{plan.rng.randint(1, 28):02d}/{m:02d}  {what}  {amount:+.2f}")
    lines.append(f"\nClosing balance: {balance:.2f} EUR")
    return "\n".join(lines), balance


def _mortgage(p: Person) -> str:
    return (
        f"{p.bank}\n\nMortgage offer\n\nApplicant: {p.name}\nProperty: 2-bedroom dwelling, 41 Orchard Row, "
        f"{p.city}\nPurchase price: 295,000 EUR\nAdvance: 236,000 EUR (80 percent of valuation)\n"
        "Term: 25 years\nRate: 4.1 percent fixed for five years, then the standard variable rate\n"
        "Repayment: 1,257 EUR per calendar period\n\nThis offer is valid for six months and subject to a "
        "satisfactory survey, proof of deposit and buildings insurance from completion. Early repayment "
        "charges of 3 percent apply during the fixed period. Your home may be repossessed if you do not "
        "keep up repayments on your mortgage."
    )
