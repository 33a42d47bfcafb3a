; Python: middleware and how it is configured, run only over files whose text mentions it (see
; repomem.miners.lang.python and repomem.miners._pyoptions).

; app.add_middleware(CORSMiddleware, allow_origins=[...]),
; Middleware(CORSMiddleware, ...), CORSMiddleware(app, ...)
(call
  function: (_) @middleware.callee
  arguments: (argument_list . [(identifier) (attribute)] @middleware.class)
  (#match? @middleware.callee "(^|\\.)(add_middleware|Middleware)$")) @middleware
(call
  function: (_) @middleware.class
  (#match? @middleware.class "^([A-Za-z_]\\w*\\.)*\\w+Middleware$")) @middleware
