from shipping.rates import parcel_rate, quote

__all__ = ["parcel_rate", "quote"]
