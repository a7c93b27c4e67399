"""Teacher's kit: `python -m tools.exercises` (student editions, exercise sheets) and `python -m tools.site`
(the static HTML site).  `make exercises` and `make site` run them; neither needs a kernel or the network."""
