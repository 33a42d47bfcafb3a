; Rust: functions and methods (impl, trait and mod scopes come from the walker), const and static.

(function_item name: (identifier) @name) @definition.function

(const_item name: (identifier) @name value: (_) @value) @definition.constant
(static_item name: (identifier) @name value: (_) @value) @definition.constant

; comments: left out of function fingerprints
[(line_comment) (block_comment)] @comment
