; Starlark (Bazel's .bzl files) through tree-sitter-python's grammar: top-level functions and
; constants.  The capture names are those of repomem/miners/lang/__init__.py.
(module (function_definition name: (identifier) @name) @definition.function)
(module (expression_statement
  (assignment left: (identifier) @name right: [(string) (integer) (float) (true) (false)] @value))
  @definition.constant)
(comment) @comment
