"""Signal receivers of the analysis app (connected in ``AnalysisConfig.ready``)."""
