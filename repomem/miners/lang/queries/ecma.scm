; JavaScript, JSX, TypeScript and TSX share these patterns (the grammars share their node names);
; javascript.scm and typescript.scm add their own with `; inherits: ecma`.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

; const f = () => ..., const f = function () {...}
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression)] @function) @definition.function

; exports.f = function () {...}, res.send = function send() {...}
(expression_statement
  (assignment_expression
    left: (member_expression) @name
    right: [(arrow_function) (function_expression)] @function)) @definition.function

;   res.contentType = res.type = function contentType(type) {...}: one function, named by the
;   innermost binding (the statement's text and signature show its aliases)
(assignment_expression
  right: (assignment_expression
    left: (member_expression) @name
    right: [(arrow_function) (function_expression)] @function) @definition.function)

(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; a property defined by a call at the top of a module, named <owner>.<name> as if assigned:
;   defineGetter(req, 'ip', function ip() {...})      (express's own helper)
;   req.__defineGetter__('ip', function () {...})
;   Object.defineProperty(req, 'ip', {get: function () {...}})
(program (expression_statement
  (call_expression
    function: [(identifier) (member_expression property: (property_identifier))] @_define
    arguments: (arguments . [(identifier) (member_expression)] @owner
                           . (string (string_fragment) @name)
                           . [(arrow_function) (function_expression)] @function .))) @definition.method
  (#match? @_define "(^|[.])define(Getter|Setter|Property|Method)$"))
(program (expression_statement
  (call_expression
    function: (member_expression object: [(identifier) (member_expression)] @owner
                                 property: (property_identifier) @_define)
    arguments: (arguments . (string (string_fragment) @name)
                           . [(arrow_function) (function_expression)] @function .))) @definition.method
  (#match? @_define "^__define[GS]etter__$"))
(program (expression_statement
  (call_expression
    function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
    arguments: (arguments . [(identifier) (member_expression)] @owner
                           . (string (string_fragment) @name)
                           . (object (pair key: (property_identifier) @_get
                                           value: [(arrow_function) (function_expression)] @function)) .))) @definition.method
  (#eq? @_object "Object") (#eq? @_define "defineProperty") (#match? @_get "^(get|value)$"))

; classes (a class is a fact like a function: its name is the value, its identity survives a rename)
(class_declaration name: (_) @name) @definition.class

; module constants: const NAME = <literal>
(program (lexical_declaration
  (variable_declarator name: (identifier) @name value: (_) @value) @definition.constant))
(program (export_statement (lexical_declaration
  (variable_declarator name: (identifier) @name value: (_) @value) @definition.constant)))

;   the object a config file exports: export default {...}, module.exports = defineConfig({...})
(program (export_statement value: (_) @value) @definition.config)
(program (expression_statement (assignment_expression
  left: (member_expression) @_exports right: (_) @value) @definition.config)
  (#eq? @_exports "module.exports"))

; a call a module's top makes with an object of options: app.use(session({ resave: false })),
; mongoose.connect(uri, { autoIndex: false }), dotenv.config({ path: '.env' })
(program (expression_statement (call_expression) @options.call))

; app settings: app.set('view engine', 'pug'), app.enable('trust proxy'), this.set('etag', 'weak')
(expression_statement
  (call_expression
    function: (member_expression object: [(identifier) (this)] @setting.object
                                  property: (property_identifier) @setting.verb)
    arguments: (arguments . (string) @setting.name)
    (#any-of? @setting.verb "set" "enable" "disable"))) @setting

; app middleware: app.use(cors()), app.use(bodyParser.json()), app.use(express.static('public'))
(expression_statement
  (call_expression
    function: (member_expression object: (identifier) @middleware.object
                                  property: (property_identifier) @_use)
    arguments: (arguments . (call_expression) @middleware.call .)
    (#eq? @_use "use"))) @middleware

; the app's error handler: app.use(function (err, req, res, next) {...}), app.use((err, ...) => ...),
; app.use(error) of a function the file declares
(expression_statement
  (call_expression
    function: (member_expression object: (identifier) @errorware.object
                                  property: (property_identifier) @_use)
    arguments: (arguments . [(function_expression) (arrow_function) (identifier)] @errorware.handler .)
    (#eq? @_use "use"))) @errorware

; app.get('/x', handler), router.post(...), app.route('/x').get(...)
(call_expression
  function: (member_expression object: (_) @route.object property: (property_identifier) @route.verb)
  arguments: (arguments) @route.args
  (#any-of? @route.verb "get" "post" "put" "delete" "del" "patch" "head" "options" "all")) @route

; routers: const r = express.Router() / Router() / new Router({prefix}) / express()
(variable_declarator name: (identifier) @router.name value: [(call_expression) (new_expression)] @router.value)
(export_statement value: [(call_expression) (new_expression)] @router.value)

; x.use('/prefix', router), x.use(router.routes())
(call_expression
  function: (member_expression object: (_) @mount.object property: (property_identifier) @_use)
  arguments: (arguments) @mount.args
  (#eq? @_use "use")) @mount

; imports and exports
(import_statement (import_clause (identifier) @import.default) source: (string) @import.source)
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name
                                                                   alias: (identifier)? @import.alias)))
                  source: (string) @import.source)
(variable_declarator
  name: (identifier) @import.default
  value: (call_expression function: (identifier) @_req arguments: (arguments . (string) @import.source))
  (#eq? @_req "require"))
(export_statement value: (identifier) @export.default)
(assignment_expression
  left: (member_expression) @_me
  right: (identifier) @export.default
  (#eq? @_me "module.exports"))

; a value a function passes to a call by name: jwt.sign(payload, secret, { expiresIn: '60d' }),
; findMany({ take: Number(query.limit) || 10 })
(call_expression
  function: [(identifier) (member_expression)] @argument.callee
  arguments: (arguments (object (pair key: (property_identifier) @argument.name
                                      value: [(number) (string) (binary_expression)] @argument.value)))) @argument

; a call or a new a function makes with a string among its arguments (before the number: of a
; call given both, the path is told): new Database("data/app.sqlite")
(call_expression
  function: [(identifier) (member_expression)] @path.callee
  arguments: (arguments (string))) @path
(new_expression
  constructor: [(identifier) (member_expression)] @path.callee
  arguments: (arguments (string))) @path

; a call a function makes with a number among its arguments: bcrypt.hash(password, 10)
(call_expression
  function: [(identifier) (member_expression)] @number.callee
  arguments: (arguments [(number) (binary_expression) (unary_expression)])) @number

; a number a function binds a local name to: var status = 302
(variable_declarator name: (identifier) @local value: (number) @local.value)

; comments: left out of function fingerprints
(comment) @comment

; a number an if, a while or a for compares a name with: if (attempts >= 3)
(binary_expression
  left: [(identifier) (member_expression)] @bound.name
  right: (number) @bound.number) @bound
(binary_expression
  left: (number) @bound.number
  right: [(identifier) (member_expression)] @bound.name) @bound

; a setter given a setting's name: config.set('port', 3000), this.set('view cache', true)
(call_expression
  function: (member_expression property: (property_identifier) @_verb) @setter.callee
  arguments: (arguments . (string) @setter.name)
  (#any-of? @_verb "set" "setDefault" "enable" "disable" "put" "setProperty")) @setter
