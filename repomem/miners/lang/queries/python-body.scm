; Python: the values a function's body states (run over one function at a time, see
; repomem.miners.lang.python and repomem.miners._arguments).

; a value passed to a call by name: f(name=<number or string>)
(call
  function: [(identifier) (attribute)] @argument.callee
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @argument.name
      value: [(integer) (float) (unary_operator) (binary_operator) (string) (boolean_operator)]
        @argument.value))) @argument

; a call given a number among its arguments: redis.ConnectionPool(host, 6379)
(call
  function: [(identifier) (attribute)] @number.callee
  arguments: (argument_list [(integer) (float) (unary_operator) (binary_operator)])) @number

; a number a function binds a local name to: max_width = 80
(assignment
  left: (identifier) @local
  right: [(integer) (float) (unary_operator) (binary_operator)] @local.value)

; a constant a function binds: DEFAULT_LIMIT = 2_097_152
(assignment
  left: (identifier) @constant
  right: (_) @constant.value
  (#match? @constant "^_?[A-Z][A-Z0-9_]*$"))
