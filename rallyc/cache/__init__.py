"""What rallyc keeps between runs in the user's cache folder (:mod:`rallyc.cache.folder`): the parser's tables, the
parsed bundled tilesets, the check results (:mod:`rallyc.cache.check_results`), the compiled files
(:mod:`rallyc.cache.compiled_files`). Importing the package imports none of them."""
