% immedfilt.q: Quasar's median filter module: immedfilt is not provided yet.
% import "immedfilt.q" finds this file in OpenQuasar's lib/ folder, so published programs
%   that
% import it run unchanged; it defines nothing of its own yet.
