; Kotlin: functions and methods, classes, objects and interfaces, const vals, Spring route
; annotations.  The grammar names few fields: Lang.fields says where a body, the parameters and
; the return type are.

(function_declaration name: (identifier) @name) @definition.function

; classes (data, enum, sealed, ...), interfaces and objects; a companion object is a scope only
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class

; const val X = ... at top level, in an object or a companion object
(property_declaration
  (modifiers (property_modifier) @_const (#eq? @_const "const"))
  (variable_declaration (identifier) @name)
  "="
  .
  (_) @value) @definition.constant

; annotations of a function and of its class (@RequestMapping, @GetMapping, ...)
(function_declaration (modifiers (annotation) @decorator)) @decorated
(class_declaration (modifiers (annotation) @decorator)) @decorated

; a call a function makes with a string among its arguments (before the number: of a call
; given both, the path is told): Database("data/app.db")
(call_expression
  . [(identifier) (navigation_expression)] @path.callee
  . (value_arguments (value_argument (string_literal)))) @path

; a call a function makes with a number among its arguments: executor.setCorePoolSize(4)
(call_expression
  . [(identifier) (navigation_expression)] @number.callee
  . (value_arguments (value_argument [(number_literal) (float_literal) (binary_expression)]))) @number

; comments: left out of function fingerprints
[(line_comment) (block_comment)] @comment

; a number an if or a while compares a name with: if (attempts >= 3)
(binary_expression
  left: [(identifier) (navigation_expression)] @bound.name
  right: [(number_literal) (float_literal)] @bound.number) @bound
(binary_expression
  left: [(number_literal) (float_literal)] @bound.number
  right: [(identifier) (navigation_expression)] @bound.name) @bound

; a setter given a setting's name: System.setProperty("k", "v"), props["k"] aside
(call_expression
  . (navigation_expression) @setter.callee
  . (value_arguments . (value_argument . (string_literal) @setter.name))
  (#match? @setter.callee "\\.(set|setDefault|put|setProperty)$")) @setter
