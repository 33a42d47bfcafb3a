; Java: methods and constructors, static final fields, Spring route annotations.

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method

; classes, interfaces, enums, records
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class

(field_declaration
  (modifiers) @modifiers
  declarator: (variable_declarator name: (identifier) @name value: (_) @value)) @definition.constant

; annotations of a method and of its class (@RequestMapping, @GetMapping, ...)
(method_declaration (modifiers [(annotation) (marker_annotation)] @decorator)) @decorated
(class_declaration (modifiers [(annotation) (marker_annotation)] @decorator)) @decorated

; a call a method makes with a number among its arguments: executor.setCorePoolSize(4)
(method_invocation
  name: (identifier) @number.callee
  arguments: (argument_list [(decimal_integer_literal) (decimal_floating_point_literal) (binary_expression)
                             (unary_expression)])) @number

; comments: left out of function fingerprints
[(line_comment) (block_comment)] @comment
