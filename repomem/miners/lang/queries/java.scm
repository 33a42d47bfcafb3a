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

; a call or a new a method makes with a string among its arguments (before the number: of a
; call given both, the path is told): new File("data/app.db")
(method_invocation
  name: (identifier) @path.callee
  arguments: (argument_list (string_literal))) @path
(object_creation_expression
  type: [(type_identifier) (scoped_type_identifier)] @path.callee
  arguments: (argument_list (string_literal))) @path

; a call a method makes with a number among its arguments: executor.setCorePoolSize(4)
(method_invocation
  name: (identifier) @number.callee
  arguments: (argument_list [(decimal_integer_literal) (decimal_floating_point_literal) (binary_expression)
                             (unary_expression)])) @number

; comments: left out of function fingerprints
[(line_comment) (block_comment)] @comment

; a number an if, a while or a for compares a name with: if (attempts >= 3)
(binary_expression
  left: [(identifier) (field_access)] @bound.name
  right: [(decimal_integer_literal) (decimal_floating_point_literal)] @bound.number) @bound
(binary_expression
  left: [(decimal_integer_literal) (decimal_floating_point_literal)] @bound.number
  right: [(identifier) (field_access)] @bound.name) @bound

; a setter given a setting's name: System.setProperty("k", "v"), props.put("k", "v")
(method_invocation
  object: (_)
  name: (identifier) @setter.callee
  arguments: (argument_list . (string_literal) @setter.name)
  (#any-of? @setter.callee "set" "setDefault" "put" "setProperty")) @setter
