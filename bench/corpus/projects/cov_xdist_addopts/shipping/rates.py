"""Parcel shipping quotes: billable weight (actual or volumetric, the
larger), zone rates by weight band, surcharges and a cheapest-split
check for heavy parcels."""

VOLUMETRIC_DIVISOR = 5000  # cm^3 per kg
BANDS = [(1, 500), (5, 900), (10, 1500), (30, 3200)]  # up to kg -> cents
ZONE_FACTOR = {"domestic": 100, "eu": 160, "world": 250}  # percent


def billable_kg(weight_kg, dims_cm):
    length, width, height = dims_cm
    volumetric = length * width * height / VOLUMETRIC_DIVISOR
    return max(weight_kg, volumetric)


def parcel_rate(kg, zone):
    """Cents for one parcel of kg billable kilograms."""
    if zone not in ZONE_FACTOR:
        raise KeyError(zone)
    if kg <= 0:
        raise ValueError("weight must be positive")
    for limit, cents in BANDS:
        if kg <= limit:
            return cents * ZONE_FACTOR[zone] // 100
    raise ValueError("over %d kg: split the shipment" % BANDS[-1][0])


def quote(weight_kg, dims_cm, zone, fragile=False, express=False):
    kg = billable_kg(weight_kg, dims_cm)
    cents = parcel_rate(kg, zone)
    if fragile:
        cents += 250
    if express:
        cents = cents * 3 // 2
    return cents
