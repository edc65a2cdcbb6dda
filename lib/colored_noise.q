% colored_noise.q: Quasar's coloured noise module: rand and randn are built into
%   OpenQuasar; the coloured-noise generators are not provided yet.
% import "colored_noise.q" finds this file in OpenQuasar's lib/ folder, so published
%   programs that
% import it run unchanged; it defines nothing of its own yet.
