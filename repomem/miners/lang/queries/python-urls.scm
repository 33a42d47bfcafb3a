; Python: a Django URLconf's bindings and route calls, run only over a file that names
; urlpatterns (see repomem.miners._pyurls, which keeps the module-level ones and composes
; include() prefixes).

; urlpatterns = [...], urlpatterns += [...], api_urls = [...]
(expression_statement
  [(assignment left: (identifier) @binding.name right: (_) @binding.value)
   (augmented_assignment left: (identifier) @binding.name right: (_) @binding.value)] @binding)

; path("search/", views.search, name="search"), re_path(...), url(...), urls.path(...)
(call
  function: [(identifier) @route.function
             (attribute attribute: (identifier) @route.function)]
  (#any-of? @route.function "path" "re_path" "url")) @route
