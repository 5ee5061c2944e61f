"""A file compiled, or why not: the pipeline (build every stage and circuit, then run the checks), the one
entry every reader of a design goes through (:mod:`rallyc.compilation.compiled.compiled`), and the garbage collector's
pauses (:mod:`rallyc.compilation.compiled.collector`). Importing the package imports none of them."""
