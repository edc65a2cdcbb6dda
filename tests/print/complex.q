% complex numbers: re+imi / re-imi, each part like a scalar
print complex(1, 2)
print complex(1, -2)
print 0i
print complex(0.5, 0.25)
print 2i
print complex(-1.5, 0)
print complex(3, 4) * complex(3, -4)
print 1 + 2j
print [complex(1, 1), complex(2, -3)]
