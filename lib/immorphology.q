% immorphology.q: Quasar's morphology module: imopen, imclose, imdilate and imerode are not
%   provided yet.
% import "immorphology.q" finds this file in OpenQuasar's lib/ folder, so published
%   programs that
% import it run unchanged; it defines nothing of its own yet.
