; Rust: functions and methods (impl, trait and mod scopes come from the walker), const and static.

(function_item name: (identifier) @name) @definition.function

; structs, enums, traits and unions
(struct_item name: (type_identifier) @name) @definition.class
(enum_item name: (type_identifier) @name) @definition.class
(trait_item name: (type_identifier) @name) @definition.class
(union_item name: (type_identifier) @name) @definition.class

(const_item name: (identifier) @name value: (_) @value) @definition.constant
(static_item name: (identifier) @name value: (_) @value) @definition.constant

; axum: Router::new().route("/todos/{id}", patch(update).delete(remove))
(call_expression
  function: (field_expression field: (field_identifier) @route.verb)
  arguments: (arguments . (string_literal) @route.path . (_) @route.args .)
  (#eq? @route.verb "route")) @route

; axum: .nest("/api", api_routes()) or .nest("/api", Router::new().route(...)): a prefix
(call_expression
  function: (field_expression field: (field_identifier) @nest.verb)
  arguments: (arguments . (string_literal) @nest.path . (_) @nest.router .)
  (#eq? @nest.verb "nest")) @nest

; axum: .merge(users::router()): another router's routes at their own paths
(call_expression
  function: (field_expression field: (field_identifier) @merge.verb)
  arguments: (arguments . (_) @merge.router .)
  (#eq? @merge.verb "merge")) @merge

; comments: left out of function fingerprints
[(line_comment) (block_comment)] @comment

; a call a function makes with a string among its arguments (before the number: of a call
; given both, the path is told): Connection::open("data/app.db")
(call_expression
  function: [(identifier) (scoped_identifier) (field_expression)] @path.callee
  arguments: (arguments [(string_literal) (raw_string_literal)])) @path

; a call a function makes with a number among its arguments: broadcast::channel(1024)
(call_expression
  function: [(identifier) (scoped_identifier) (field_expression)] @number.callee
  arguments: (arguments [(integer_literal) (float_literal) (binary_expression) (unary_expression)])) @number

; a struct literal a function makes: Connection { buffer: BytesMut::with_capacity(4 * 1024) }
(struct_expression
  name: [(type_identifier) (scoped_type_identifier)] @literal.type
  body: (field_initializer_list (field_initializer))) @literal

; a number an if or a while compares a name with: if backoff > 64
(binary_expression
  left: [(identifier) (field_expression)] @bound.name
  right: [(integer_literal) (float_literal)] @bound.number) @bound
(binary_expression
  left: [(integer_literal) (float_literal)] @bound.number
  right: [(identifier) (field_expression)] @bound.name) @bound

; a setter given a setting's name: builder.set_default("port", 8080)
(call_expression
  function: (field_expression field: (field_identifier) @_verb) @setter.callee
  arguments: (arguments . [(string_literal) (raw_string_literal)] @setter.name)
  (#any-of? @_verb "set" "set_default" "put")) @setter
