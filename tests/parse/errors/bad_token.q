% A character that is not Quasar, then a PDF curly quote.
x = 3 @ 4
y : cube’unchecked = zeros(3, 3, 3)
