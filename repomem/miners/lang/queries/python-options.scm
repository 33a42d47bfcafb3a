; Python: a command's CLI options, run only over files whose text mentions one (see
; repomem.miners.lang.python and repomem.miners._pyoptions).

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
