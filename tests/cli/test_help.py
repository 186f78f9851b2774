"""Every command has help with an example (the docstring is the --help text)."""

from __future__ import annotations

from starbattle.cli.main import cli


def test_help_of_every_command_has_an_example(run) -> None:
    for name, command in cli.commands.items():
        result = run(name, "--help")
        assert result.exit_code == 0 and (command.help or "").strip(), name
        if name != "encodings":
            assert "Example: starbattle-asp" in result.output, name
