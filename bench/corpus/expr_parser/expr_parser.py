"""Tokenizer and recursive-descent evaluator for arithmetic expressions.

Grammar:
    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/") unary)*
    unary      := "-" unary | power
    power      := atom ("^" unary)?
    atom       := NUMBER | "(" expression ")"
"""
import re

TOKEN_RE = re.compile(r"\s*(?:(\d+\.\d*|\d+)|(.))")
OPERATORS = "+-*/^()"


class ParseError(ValueError):
    """The text is not a well-formed expression."""


def tokenize(text):
    """List of (kind, value) tokens ending with ("END", None)."""
    tokens = []
    text = text.rstrip()
    pos = 0
    while pos < len(text):
        match = TOKEN_RE.match(text, pos)
        number, op = match.groups()
        if number is not None:
            tokens.append(("NUM", float(number) if "." in number else int(number)))
        elif op in OPERATORS:
            tokens.append(("OP", op))
        else:
            raise ParseError(f"unexpected character {op!r} at {match.start(2)}")
        pos = match.end()
    tokens.append(("END", None))
    return tokens


class Parser:
    def __init__(self, text):
        self.tokens = tokenize(text)
        self.index = 0

    def peek(self):
        return self.tokens[self.index]

    def advance(self):
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self):
        value = self.expression()
        if self.peek()[0] != "END":
            raise ParseError(f"unexpected {self.peek()[1]!r} after expression")
        return value

    def expression(self):
        value = self.term()
        while self.peek() in (("OP", "+"), ("OP", "-")):
            op = self.advance()[1]
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self):
        value = self.unary()
        while self.peek() in (("OP", "*"), ("OP", "/")):
            op = self.advance()[1]
            rhs = self.unary()
            if op == "*":
                value = value * rhs
            elif rhs == 0:
                raise ZeroDivisionError("division by zero")
            else:
                value = value / rhs
        return value

    def unary(self):
        if self.peek() == ("OP", "-"):
            self.advance()
            return -self.unary()
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek() == ("OP", "^"):
            self.advance()
            return base ** self.unary()
        return base

    def atom(self):
        kind, value = self.advance()
        if kind == "NUM":
            return value
        if value == "(":
            inner = self.expression()
            if self.advance() != ("OP", ")"):
                raise ParseError("missing closing parenthesis")
            return inner
        raise ParseError(f"unexpected token {value!r}")


def evaluate(text):
    """Value of the arithmetic expression in text."""
    return Parser(text).parse()
