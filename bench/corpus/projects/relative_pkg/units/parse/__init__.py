from .quantity import parse_quantity

__all__ = ["parse_quantity"]
