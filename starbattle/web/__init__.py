"""`starbattle-asp serve`: a local web page to play, check, get hints and solve.

`api` answers the JSON API with the command line's records (no HTTP); `server` serves it and
the page's static files (`static/`: plain HTML, CSS and JavaScript, no build step).
"""
