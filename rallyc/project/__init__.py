"""What rallyc reads from disk: a file with its includes and the tilesets in scope
(:mod:`rallyc.project.loader.loader`), the settings file (:mod:`rallyc.project.loader.config`), reading files and folders
(:mod:`rallyc.project.loader.fileio`). Importing the package imports none of them."""
