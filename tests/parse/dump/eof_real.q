% A real literal at the very end of a file without a final line break.
x = 0.