% EXPECT: 1 runtime error: immedfilt: the radius must be an integer >= 0, not 1.5
% The median filter's radius is a whole number.
import "immedfilt.q"
y = immedfilt(ones(4, 4), 1.5)
