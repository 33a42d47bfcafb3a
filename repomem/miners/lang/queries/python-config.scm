; Python: what a file configures, run only over files whose text mentions it (see
; repomem.miners.lang.python): CLI options and middleware.

; A CLI option or argument declared on a command: @click.option("--port", default=5000)
(decorated_definition
  (decorator
    (call function: (_) @option.callee) @option)
  definition: (function_definition name: (identifier) @option.function) @option.definition
  (#match? @option.callee "^(click\\.|typer\\.|cloup\\.)?(option|argument)$"))

; ...or as a parameter's default: port: int = typer.Option(5000, "--port")
(function_definition
  name: (identifier) @option.function
  parameters: (parameters
    [(default_parameter name: (identifier) @option.parameter
       value: (call function: (_) @option.callee) @option)
     (typed_default_parameter name: (identifier) @option.parameter
       value: (call function: (_) @option.callee) @option)])
  (#match? @option.callee "^(typer\\.)?(Option|Argument)$")) @option.definition

; Middleware and how it is configured: app.add_middleware(CORSMiddleware, allow_origins=[...]),
; Middleware(CORSMiddleware, ...), CORSMiddleware(app, ...)
(call
  function: (_) @middleware.callee
  arguments: (argument_list . [(identifier) (attribute)] @middleware.class)
  (#match? @middleware.callee "(^|\\.)(add_middleware|Middleware)$")) @middleware
(call
  function: (_) @middleware.class
  (#match? @middleware.class "^([A-Za-z_]\\w*\\.)*\\w+Middleware$")) @middleware
