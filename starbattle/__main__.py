"""`python -m starbattle`: the starbattle-asp command line."""

from starbattle.entry import main

main()
