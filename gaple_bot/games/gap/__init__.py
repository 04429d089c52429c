"""Gap, the colour-card game of seed 004: take cards by value, score by how unevenly colours lie."""
