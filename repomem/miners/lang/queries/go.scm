; Go: functions, methods (with their receiver type), constants, net/http / gin / echo / chi routes.

(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @receiver
           (pointer_type (type_identifier) @receiver)
           (generic_type type: (type_identifier) @receiver)
           (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method

; types: structs, interfaces and named types (package level)
(source_file (type_declaration (type_spec name: (type_identifier) @name) @definition.class))

; const X = 3 and const ( ... ) blocks, package level and a function's own
(source_file (const_declaration
  (const_spec name: (identifier) @name value: (expression_list . (_) @value .)) @definition.constant))
(statement_list (const_declaration
  (const_spec name: (identifier) @name value: (expression_list . (_) @value .)) @definition.constant))

; var X = ... at package level, alone or in a var ( ... ) block: a literal, a constant
; expression, or the entries of a map or struct literal (var DefaultConfig = Config{Port: 8080})
(source_file (var_declaration
  (var_spec name: (identifier) @name value: (expression_list . (_) @value .)) @definition.constant) @variable)
(source_file (var_declaration (var_spec_list
  (var_spec name: (identifier) @name value: (expression_list . (_) @value .)) @definition.constant)) @variable)

; http.HandleFunc("/x", h), mux.Handle(...), r.GET("/x", h), e.POST(...), r.Get("/x", h)
(call_expression
  function: (selector_expression operand: (_) @route.object field: (field_identifier) @route.verb)
  arguments: (argument_list) @route.args
  (#any-of? @route.verb "HandleFunc" "Handle" "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS"
                        "Any" "Get" "Post" "Put" "Delete" "Patch" "Head" "Options")) @route

; v1 := r.Group("/v1") (gin, echo): a prefix for the routes registered on v1 in this file
(short_var_declaration
  left: (expression_list . (identifier) @group.name)
  right: (expression_list . (call_expression
    function: (selector_expression operand: (identifier) @group.object field: (field_identifier) @_g)
    arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @group.path)))
  (#any-of? @_g "Group"))

; users.UsersRegister(v1.Group("/users")), Register(api.Group("/v2")) (gin, echo): a function,
; maybe of another package, registers its routes on a group of this file (see lang/routes.py)
(call_expression
  function: [(identifier) @mount.function
             (selector_expression operand: (identifier) @mount.package field: (field_identifier) @mount.function)]
  arguments: (argument_list . (call_expression
    function: (selector_expression operand: (identifier) @mount.object field: (field_identifier) @_mg)
    arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @mount.path .)) .)
  (#eq? @_mg "Group")) @mount

; comments: left out of function fingerprints
(comment) @comment

; a call a function makes with a string among its arguments (before the number: of a call
; given both, the path is told): gorm.Open("sqlite3", "./../gorm.db")
(call_expression
  function: [(identifier) (selector_expression)] @path.callee
  arguments: (argument_list [(interpreted_string_literal) (raw_string_literal)])) @path

; a call a function makes with a number among its arguments: db.DB().SetMaxIdleConns(10)
(call_expression
  function: [(identifier) (selector_expression)] @number.callee
  arguments: (argument_list [(int_literal) (float_literal) (binary_expression) (unary_expression)])) @number

; a struct or map literal a function makes: &http.Server{Addr: ":8080", ReadTimeout: 10},
; jwt.MapClaims{"exp": ...}, map[string]any{"exp": ...}
(composite_literal
  type: [(type_identifier) (qualified_type) (map_type)] @literal.type
  body: (literal_value (keyed_element))) @literal

; a number an if or a for compares a name with: if attempts >= 3
(binary_expression
  left: [(identifier) (selector_expression)] @bound.name
  right: [(int_literal) (float_literal)] @bound.number) @bound
(binary_expression
  left: [(int_literal) (float_literal)] @bound.number
  right: [(identifier) (selector_expression)] @bound.name) @bound

; a setter given a setting's name: viper.SetDefault("port", 8080)
(call_expression
  function: (selector_expression field: (field_identifier) @_verb) @setter.callee
  arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @setter.name)
  (#any-of? @_verb "Set" "SetDefault" "Put" "SetProperty")) @setter
