"""Errors raised by the game layer. All are ValueErrors: they always mean bad input, never a bug."""


class GameInputError(ValueError):
    """Base class: the caller passed something the game cannot accept; nothing was changed."""


class IllegalActionError(GameInputError):
    """An action id or structured action that is not legal in the current state."""


class StateFormatError(GameInputError):
    """JSON (or raw bytes) that does not describe a valid, self-consistent state or observation."""


class UnknownGameError(GameInputError):
    """A game name, variant or player count the registry does not offer."""
