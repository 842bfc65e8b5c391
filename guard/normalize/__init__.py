"""Stage 1: prose → Norm. Normalizers are picked by registered, versioned name."""
from guard.normalize.base import Normalizer, SafeNormalizer, get_normalizer, register, registered

__all__ = ["Normalizer", "SafeNormalizer", "get_normalizer", "register", "registered"]
