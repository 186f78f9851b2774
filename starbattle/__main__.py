"""`python -m starbattle`: the starbattle-asp command line."""

from starbattle.cli import main

main()
