"""Who plays a game the referee steps: the seeded bot (:mod:`.bot`), a driver of the
:class:`~rallyc.rules.core.driver.Driver` protocol. The analysis' drivers are in :mod:`rallyc.analysis`. Importing the
package imports none of its modules."""
