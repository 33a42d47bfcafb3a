import typing as t


class ParamType:
    name: str = "param"


class StringParamType(ParamType):
    name = "text"


class IntParamType(ParamType):
    name = "integer"


#: A unicode string parameter type which is the implicit default.  This
#: can also be selected by using ``str`` as type.
#:
#: .. versionadded:: 2.0
STRING: t.Final[StringParamType] = StringParamType()

INT = IntParamType()

_MISSING = object()
