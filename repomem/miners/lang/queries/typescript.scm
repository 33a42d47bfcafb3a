; TypeScript and TSX (the JavaScript patterns, TypeScript node names): definitions, constants, routes and router wiring.
; inherits: ecma
; Capture names are documented in repomem/miners/lang/__init__.py.

(public_field_definition
  name: (property_identifier) @name
  value: [(arrow_function) (function_expression)] @function) @definition.method

; TypeScript's class-like declarations: abstract classes, interfaces, type aliases, enums
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.class
(type_alias_declaration name: (type_identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.class

; NestJS: decorators of a method (siblings before it in the class body) and of a class
(class_body (decorator) @decorator . (method_definition) @decorated)
(class_body (decorator) @decorator . (decorator) . (method_definition) @decorated)
(class_body (decorator) @decorator . (decorator) . (decorator) . (method_definition) @decorated)
(class_declaration decorator: (decorator) @decorator) @decorated
(export_statement decorator: (decorator) @decorator declaration: (class_declaration) @decorated)
