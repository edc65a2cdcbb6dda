% EXPECT: 1 subplot: panel 3 is outside a 1 x 3 layout \(0\.\.2\)
% Panels count from 0, as in Quasar's subplot(1, 3, 0).
subplot(1, 3, 3)
