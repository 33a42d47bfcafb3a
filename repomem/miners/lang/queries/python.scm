; Python: functions, methods and classes.  Which
; definitions are facts (module and class level, also inside if/try/with blocks; not inside a
; function body, nor a loop) is decided by repomem.miners.lang.python, as the walker decides
; for the other languages.

(function_definition name: (identifier) @name) @definition.function

(class_definition name: (identifier) @name body: (block)) @definition.class
