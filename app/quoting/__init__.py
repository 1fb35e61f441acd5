"""From a scenario's inputs to its quote: the parameters, the quote, and the quote as JSON."""
