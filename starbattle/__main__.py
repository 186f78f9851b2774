"""`python -m starbattle`: the starbattle-asp command line."""

from starbattle.cli.entry import main

main()
