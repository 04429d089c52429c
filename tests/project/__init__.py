"""What the repository promises beyond the package: its README and docs, its benchmarks."""
