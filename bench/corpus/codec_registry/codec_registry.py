"""Text codecs that register themselves by name through __init_subclass__;
encode/decode look them up in the registry."""


class Codec:
    """Base class: a subclass registers under its `name` class keyword
    (default: the lower-cased class name) unless it is abstract."""

    registry = {}

    def __init_subclass__(cls, name=None, abstract=False, **kwargs):
        super().__init_subclass__(**kwargs)
        if abstract:
            return
        key = (name or cls.__name__).lower()
        if key in Codec.registry:
            raise ValueError("duplicate codec %r" % key)
        cls.codec_name = key
        Codec.registry[key] = cls

    def encode(self, text):
        raise NotImplementedError

    def decode(self, text):
        raise NotImplementedError


class ShiftCodec(Codec, abstract=True):
    """Caesar shift of ASCII letters by `shift` places."""

    shift = 0

    def _move(self, text, by):
        out = []
        for ch in text:
            if "a" <= ch <= "z":
                out.append(chr((ord(ch) - 97 + by) % 26 + 97))
            elif "A" <= ch <= "Z":
                out.append(chr((ord(ch) - 65 + by) % 26 + 65))
            else:
                out.append(ch)
        return "".join(out)

    def encode(self, text):
        return self._move(text, self.shift)

    def decode(self, text):
        return self._move(text, -self.shift)


class Rot13(ShiftCodec, name="rot13"):
    shift = 13


class Caesar(ShiftCodec):
    shift = 3


class Reverse(Codec, name="reverse"):
    def encode(self, text):
        return text[::-1]

    def decode(self, text):
        return text[::-1]


def get_codec(name):
    try:
        return Codec.registry[name.lower()]()
    except KeyError:
        raise LookupError("unknown codec: %s" % name) from None


def encode(text, *names):
    """Applies the codecs in order."""
    for name in names:
        text = get_codec(name).encode(text)
    return text


def decode(text, *names):
    """Undoes encode(text, *names)."""
    for name in reversed(names):
        text = get_codec(name).decode(text)
    return text
