x = 3abc + 1
y = 1e
