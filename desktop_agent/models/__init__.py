"""Chat models the user can get: the reviewed catalog, consented downloads, and the models
installed in the data folder."""
