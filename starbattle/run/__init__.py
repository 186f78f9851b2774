"""Floor 4, running: the service the command line and the web page call, processes, clusters."""
