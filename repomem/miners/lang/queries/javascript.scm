; JavaScript (and JSX): definitions, constants, routes and router wiring.
; inherits: ecma
; Capture names are documented in repomem/miners/lang/__init__.py.

(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)] @function) @definition.method
