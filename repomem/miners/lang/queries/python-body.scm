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

; a call given a string among its arguments (before the number: of a call given both, the path
; is told): sqlite3.connect("app.db")
(call
  function: [(identifier) (attribute)] @path.callee
  arguments: (argument_list [(string) (concatenated_string)])) @path

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

; a dict a function builds with a string key: {"exp": datetime.utcnow() + timedelta(hours=1)}
(dictionary (pair key: (string))) @entries

; a number an if or a while compares a name with: while retries < 5
(comparison_operator
  . [(identifier) (attribute)] @bound.name
  . [(integer) (float)] @bound.number .) @bound
(comparison_operator
  . [(integer) (float)] @bound.number
  . [(identifier) (attribute)] @bound.name .) @bound

; a setter given a setting's name: kwargs.setdefault("is_flag", True), config.set("port", 8080)
(call
  function: (attribute attribute: (identifier) @_verb) @setter.callee
  arguments: (argument_list . (string) @setter.name)
  (#any-of? @_verb "set" "setdefault" "set_default" "enable" "disable" "put" "setProperty"
                   "set_property")) @setter
