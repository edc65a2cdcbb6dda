% A character that is not Quasar, then a PDF curly quote.
x = 3 @ 4
y : cube’unchecked = zeros(3, 3, 3)
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
