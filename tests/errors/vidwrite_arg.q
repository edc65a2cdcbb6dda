% EXPECT: 1 vidwrite: expected a video writer from vidopen\(file, "w", \.\.\.\), not mat
vidwrite(zeros(2, 2), zeros(2, 2))
