"""Tests of the message catalogs and the translators."""
